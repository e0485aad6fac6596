/** The largest file an import takes (bytes), in the browser and over MCP. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** The most data rows one import takes. */
export const MAX_IMPORT_ROWS = 200_000;
/** The largest CSV an agent may send as text in one contacts_import call (characters). */
export const MAX_TEXT_IMPORT_CHARS = 4_000_000;
/** Agent imports up to this many rows finish within the call; larger ones answer `running`. */
export const INLINE_IMPORT_ROWS = 2_000;
/** Rows written per transaction (and per checkpoint). */
export const IMPORT_BATCH_ROWS = 2_000;
/** Size of the pieces the uploaded file is kept in. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;
/** Rows shown beside the mapping. */
export const SAMPLE_ROWS = 5;
/** An upload that was never started is removed after this long (ms). */
export const STALE_UPLOAD_MS = 24 * 60 * 60_000;
/** The most columns a file may have (its mapping names each one). */
export const MAX_IMPORT_COLUMNS = 500;
/** Rows merged as duplicates listed per import, with the contact each joined (all are counted). */
export const MAX_KEPT_DUPLICATES = 10_000;
