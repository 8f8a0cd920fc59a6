// Maps a PostgREST error from an RPC to the HTTP status a function should answer with.
import { HttpError } from './http.ts';

export interface PostgrestLikeError {
  code?: string;
  message: string;
}

export function rpcError(err: PostgrestLikeError): HttpError {
  switch (err.code) {
    case '42501': // insufficient_privilege: raised by our RPCs for "not allowed"
    case 'PGRST301':
      return new HttpError(403, err.message);
    case 'P0002': // no_data_found
    case 'PGRST116':
      return new HttpError(404, err.message);
    case '22023': // invalid_parameter_value
    case '22P02': // invalid_text_representation
    case '23514': // check_violation
    case 'P0001': // raise exception without errcode: treat as a refused request
      return new HttpError(400, err.message);
    default:
      return new HttpError(500, 'Database request failed');
  }
}
