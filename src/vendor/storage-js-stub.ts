// Stands in for @supabase/storage-js in the browser build (see vite.config.ts): supabase-js builds a
// StorageClient in its constructor, but the app needs only three Storage requests (issue 38): TUS
// uploads (tus-js-client, sync/attachments/uploader.ts), signed URLs
// (src/pages/chat/attachments/sign-url.ts) and deleting a cancelled message's objects
// (sync/attachments/remove-objects.ts), each made as storage-js makes it; the real client
// (storage-js with iceberg-js, about 7 KB gzip) would only weigh on the entry chunk. Invariant:
// nothing in src/ or sync/ touches `supabase.storage`; if something ever does, every call fails
// loudly here instead of doing nothing.
const unavailable = (): never => {
  throw new Error('Supabase Storage is not part of this build (src/vendor/storage-js-stub.ts)');
};

export class StorageClient {
  from = unavailable;
  listBuckets = unavailable;
  getBucket = unavailable;
  createBucket = unavailable;
  updateBucket = unavailable;
  emptyBucket = unavailable;
  deleteBucket = unavailable;
}

export class StorageApiError extends Error {
  status: number;
  constructor(message: string, status = 500) {
    super(message);
    this.name = 'StorageApiError';
    this.status = status;
  }
}
