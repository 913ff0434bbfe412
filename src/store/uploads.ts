// The uploads repository of one community (migration 0098_uploads): a record per uploaded file (who
// uploaded it, its name, detected type, size, SHA-256 and an image's dimensions); the bytes live
// outside the database, in the community's folder of the uploads directory.
type Timestamp = string | Date;

export type UploaderKind = 'person' | 'agent' | 'system';

export type Upload = {
  id: string;
  uploaderKind: UploaderKind;
  uploaderId: string;
  /** The safe file name (what the URL ends with and a download is saved as). */
  filename: string;
  /** The type detected from the content (never the one the client claimed). */
  contentType: string;
  byteSize: number;
  sha256: string;
  /** An image's pixel size; null for other files. */
  width: number | null;
  height: number | null;
  createdAt: string;
};

export type NewUpload = Omit<Upload, 'createdAt'>;

export interface UploadRepository {
  /** Records an upload (the id is the caller's: the bytes are stored under it first). */
  create(upload: NewUpload): Promise<Upload>;
  get(id: string): Promise<Upload | undefined>;
  /** The uploads of these ids that exist here (any other id is left out). */
  getMany(ids: readonly string[]): Promise<Upload[]>;
  /**
   * The bytes every upload of the community takes together (its quota counts them). In a
   * transaction, another transaction's totalBytes waits until this one ends, so checking for room
   * and recording an upload in one transaction never lets two uploads pass the quota together.
   */
  totalBytes(): Promise<number>;
}

/** Kysely table types of 0098_uploads (see ./schema.ts for the conventions). */
export interface UploadDatabase {
  uploads: {
    community_id: string;
    id: string;
    uploader_kind: string;
    uploader_id: string;
    filename: string;
    content_type: string;
    byte_size: number | string;
    sha256: string;
    width: number | null;
    height: number | null;
    created_at: Timestamp;
  };
}
