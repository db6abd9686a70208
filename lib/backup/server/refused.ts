/** A backup or restore that was refused before it changed anything, saying why (the commands exit 1). */
export class BackupRefused extends Error {
  override name = "BackupRefused";
}
