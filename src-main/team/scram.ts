import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'

/*
 * A SCRAM-SHA-256 verifier (RFC 5802, RFC 7677), in the form Postgres stores it:
 * SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>. Given to CREATE ROLE … PASSWORD,
 * the operator's password itself never reaches the server, nor its logs (psql's \password does
 * the same). The passwords this app generates are ASCII, which SASLprep leaves as they are.
 */

const ITERATIONS = 4096

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest()

export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): string {
  if (!/^[\x21-\x7e]+$/.test(password)) throw new Error('A generated password is visible ASCII.')
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256')
  const storedKey = createHash('sha256').update(hmac(salted, 'Client Key')).digest()
  const serverKey = hmac(salted, 'Server Key')
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}

/** 32 characters from 24 random bytes: what `team add-operator` prints once. */
export const generatePassword = () => randomBytes(24).toString('base64url')
