// The JSON Web Token a GitHub App signs to read its own webhook's deliveries (`/app/hook/deliveries`),
// made with node:crypto: RS256 over the App's id, valid for 9 minutes from a minute ago (GitHub
// allows 10 at most, and a clock a little ahead of GitHub's would otherwise be refused).
import { createPrivateKey, createSign, type KeyObject } from 'node:crypto';

/** The App's key, read once from GITHUB_APP_PRIVATE_KEY; an error names the variable, never its value. */
export interface AppKey {
  appId: string;
  key: KeyObject;
}

export function readAppKey(appId: string, privateKeyPem: string): AppKey {
  if (!/^[1-9][0-9]{0,18}$/.test(appId.trim())) {
    throw new Error("GITHUB_APP_ID: give the App ID shown on the App's settings page, a number such as 123456");
  }
  let key: KeyObject;
  try {
    // A key given through an environment variable often has its line breaks written as "\n".
    key = createPrivateKey(privateKeyPem.replace(/\\n/g, '\n'));
  } catch {
    throw new Error(
      'GITHUB_APP_PRIVATE_KEY: not a PEM private key; give the whole .pem file GitHub generated for the App',
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new Error('GITHUB_APP_PRIVATE_KEY: not an RSA key; give the .pem file GitHub generated for the App');
  }
  return { appId: appId.trim(), key };
}

/** The App's JWT at `nowMs`. */
export function appJwt(app: AppKey, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(JSON.stringify({ iat: now - 60, exp: now + 540, iss: app.appId }));
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(app.key);
  return `${header}.${claims}.${signature.toString('base64url')}`;
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
