/**
 * A reader that stops early (`petstore-contract --help | head -3`) closes the pipe: writing on is an
 * EPIPE, which Node throws as an unhandled 'error' with a stack. What is left to print is dropped
 * instead; the command still runs to its end and exits with its own code (a gate's verdict is kept).
 */
export function dropOutputOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      stream.write = () => true;
    });
  }
}
