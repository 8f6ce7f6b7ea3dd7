/** Where the memory table lives, as the store adapter, the writer lease and the upkeep process see it. */

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string | null;
}

export type StoreLocation =
  | { kind: 'local'; uri: string }
  | {
      kind: 's3';
      /** `s3://bucket/prefix`, without a trailing slash. */
      uri: string;
      bucket: string;
      /** Key prefix inside the bucket, without leading or trailing slashes; may be empty. */
      prefix: string;
      /** Base URL of an S3-compatible server (path-style requests), or null for AWS itself. */
      endpoint: string | null;
      region: string;
      credentials: S3Credentials;
    };

/** The location as shown to users and written to logs: never a credential. */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.kind === 'local') return location.uri;
  return location.endpoint === null ? location.uri : `${location.uri} at ${location.endpoint}`;
}
