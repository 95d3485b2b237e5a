/** Commands contributed by plugins (users-permissions adds `token create|list|revoke`). */
export async function runPluginCommand(_command: string, _argv: string[]): Promise<boolean> {
  return false;
}
