// Types of scripts/firestore-emulator.mjs, for the tests that import it.
export const INSTALL_HINT: string;

export type FoundEmulator =
  | { kind: string; command: string; args: string[]; reason?: undefined }
  | { reason: string; kind?: undefined; command?: undefined; args?: undefined };
export function findFirestoreEmulator(): FoundEmulator;

export function freePort(): Promise<number>;
export function answers(host: string): Promise<boolean>;

export interface StartedEmulator {
  /** 127.0.0.1:port, for FIRESTORE_EMULATOR_HOST. */
  host: string;
  kind: string;
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}
export function startFirestoreEmulator(options?: {
  port?: number;
  logFile?: string;
  onSpawn?: (pid: number) => void;
  timeoutMs?: number;
}): Promise<StartedEmulator>;

export function clearProject(host: string, projectId: string): Promise<void>;
