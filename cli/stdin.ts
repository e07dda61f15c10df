/** All of stdin as text (a password piped in); refuses to wait on a terminal. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    process.stderr.write("reading from stdin: type it and press Ctrl-D\n");
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
