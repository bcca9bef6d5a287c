import { spawn } from 'node:child_process';

/** The platform's "open this URL" command; the URL is one argument, never passed through a shell. */
export function browserCommand(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // start is a cmd builtin; its first quoted argument is a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] };
  return { command: 'xdg-open', args: [url] };
}

/** Opens `url` in the default browser; resolves false when no opener could be started. */
export function openBrowser(url: string): Promise<boolean> {
  const { command, args } = browserCommand(process.platform, url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
