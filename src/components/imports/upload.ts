import type { TUploadResult } from "@/server/programme/imports/upload";

/**
 * Sends a file to /api/imports as the request body. XMLHttpRequest streams a File from disk
 * without reading it into this page's memory, and reports upload progress (fetch does neither).
 */
export function uploadCsv(
  workspaceId: string,
  file: File,
  onProgress: (fraction: number) => void,
): { promise: Promise<TUploadResult>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<TUploadResult>((resolve, reject) => {
    xhr.open("POST", `/api/imports?workspaceId=${encodeURIComponent(workspaceId)}`);
    xhr.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
    xhr.setRequestHeader("Content-Type", "text/csv");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status === 201) resolve(xhr.response as TUploadResult);
      else
        reject(
          new Error(
            (xhr.response as { message?: string } | null)?.message ?? `The upload failed (${xhr.status}). Try again.`,
          ),
        );
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted; check the connection and try again."));
    xhr.onabort = () => reject(new Error("The upload was stopped."));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}

/**
 * Discards an upload that was never imported as its page is left: a keepalive request outlives
 * the page (closing the tab, reloading, following a link), which tRPC's batched fetch does not.
 * Best effort: an upload it misses is listed on the Imports page, where it can be discarded.
 */
export function discardUploadOnLeave(workspaceId: string, importId: string): void {
  void fetch(`/api/imports/${encodeURIComponent(importId)}?workspaceId=${encodeURIComponent(workspaceId)}`, {
    method: "DELETE",
    keepalive: true,
    credentials: "same-origin",
  }).catch(() => undefined);
}
