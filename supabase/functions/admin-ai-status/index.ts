import handler from './handler.ts';

Deno.serve((req: Request) => handler(req, Deno.env.toObject() as Parameters<typeof handler>[1]));
