// An upload's file named by path, for the person's tab (issue 33): read by the server from its
// upload folder (SIGHTLINE_UPLOAD_DIR, the same rule as the headless backend: nothing outside
// it, symlinks out of it included) and sent over the bridge as bytes. Unset: uploads by path are
// off; inline content (the upload tool's `content`) still works.
import { readFile } from "node:fs/promises";
import { checkUploadSize, fileNameOf } from "@sightline/shared/agent";
import type { UploadFile, UploadReader } from "@sightline/shared/agent/bridge";
import { uploadFile } from "@sightline/shared/agent/headless";

export function uploadReader(dir: () => string | undefined = () => process.env.SIGHTLINE_UPLOAD_DIR): UploadReader {
  return async (path: string): Promise<UploadFile> => {
    const file = await uploadFile(dir(), path);
    checkUploadSize(file.size, `"${path}"`);
    return { name: fileNameOf(file.path), size: file.size, base64: (await readFile(file.path)).toString("base64") };
  };
}
