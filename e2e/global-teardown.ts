/** After the whole suite: remove the profile folders tests shared (e2e/helpers/profile.ts), whichever tests ran. */
import { PROFILES, profileDir, removeProfile } from './helpers/profile';

export default function globalTeardown(): void {
  for (const name of PROFILES) removeProfile(profileDir(name));
}
