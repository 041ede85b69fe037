// Screenshot storage: an object store interface (data dir now, S3-compatible later) and
// HMAC-signed capability links to what it holds.
export { FileObjectStore, CONTENT_TYPES, OBJECT_ID, type ObjectStore, type StoredObject, type ImageFormat } from "./store.js";
export { UrlSigner, loadSigningSecret, type Verdict } from "./signed-url.js";
export { ScreenshotService } from "./screenshots.js";
export { PgObjectStore, sharedSigningSecret } from "./pg-store.js";
export { openScreenshotStorage } from "./open.js";
