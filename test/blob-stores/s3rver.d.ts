// s3rver ships no types; what the tests use of it.
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list, composed when the server starts listening. */
    middleware: ((context: any, next: () => Promise<void>) => Promise<void>)[];
    store: { existsObject(bucket: string, key: string): Promise<boolean> };
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
