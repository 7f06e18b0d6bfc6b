import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/**
 * Starts a server process and resolves with its URL once it prints `listening on <url>`.
 * `logFile`: where its output goes on after that (its warnings and errors), kept to be read after a run.
 */
export function startProcess(command: string, args: string[], env: Record<string, string>, logFile?: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const listening = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      child.stdout!.off('data', listening);
      if (logFile) child.stdout!.pipe(fs.createWriteStream(logFile, { flags: 'a' }));
      else child.stdout!.resume();
      resolve({ child, url: match[1] });
    };
    child.stdout!.on('data', listening);
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

/** Stops a process started above and waits for it to be gone. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function readStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

/** The process's resident memory now, in MiB. */
export function readRssMb(pid: number): number {
  return readStatusKb(pid, 'VmRSS') / 1024;
}

/** The process's resident memory high-water mark (the kernel's VmHWM, every page counted, no sampling), in MiB. */
export function readPeakRssMb(pid: number): number {
  return readStatusKb(pid, 'VmHWM') / 1024;
}

/** Sets the high-water mark back to the present RSS (Linux: `5` to /proc/<pid>/clear_refs). */
export function resetPeakRss(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** CPU time the process has used so far (user + system, every thread), in ms: /proc/<pid>/stat's utime and stime, in clock ticks of 10 ms. */
export function readCpuMs(pid: number, thread?: number): number {
  const fields = statFields(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The fields of a /proc stat file after the command name (field 2, which may hold spaces): index 0 is field 3. */
function statFields(file: string): string[] {
  const stat = fs.readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU time every `postgres` process on this machine has used so far, with that of the ones
 * that ended, in ms (0 where there is none): what a request costs the database, read around a
 * slice as the server's own is. The machine's other PostgreSQL work (checkpoints, other
 * databases) counts too: a quiet machine keeps it small.
 */
export function readDatabaseCpuMs(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      // Its own time and its ended children's (cutime, cstime): the postmaster's holds the
      // backends, autovacuum and parallel workers that ended during the slice, whose time would
      // otherwise leave the sum with them.
      const fields = statFields(`/proc/${entry}/stat`);
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}
