// Types of test-engines.mjs for the TypeScript tests that import it.
export declare const knownEngines: readonly string[];
export declare function requestedEngines(env: NodeJS.ProcessEnv): string[];
export declare function isCi(env: NodeJS.ProcessEnv): boolean;
export declare function missingEngineVerdict(engine: string, location: string, env: NodeJS.ProcessEnv): { fail: boolean; lines: string[] };
export declare function postgresReachable(url: string): Promise<boolean>;
