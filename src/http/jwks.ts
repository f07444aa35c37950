import { Elysia } from 'elysia'
import { publicSigningKeys } from '../../db/signing-keys'
import type { Db } from '../../db/client'
import { json } from './json'

/** The public keys that verify the `JWS-Signature` header of task responses. */
export function jwksRoute(deps: { db: Db }) {
  return new Elysia({ name: 'jwks' }).get(
    '/.well-known/jwks.json',
    async () => json({ keys: await publicSigningKeys(deps.db) }, 200, { 'cache-control': 'public, max-age=300' }),
    {
      detail: {
        operationId: 'getJwks',
        summary: 'Public keys for response signatures (JWKS)',
        description:
          'Every 200 of `GET /api/antibot/tasks/{task_id}` carries a `JWS-Signature` header: a detached JWS (RFC 7515 appendix F), Ed25519 (`alg: EdDSA`), over the exact response body. Verify it with the key whose `kid` the JWS header names.',
        tags: ['Tasks'],
        security: [],
        responses: {
          200: {
            description: 'The JSON Web Key Set (RFC 7517) of every signing key, newest first.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['keys'],
                  properties: {
                    keys: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['kty', 'crv', 'x', 'kid'],
                        properties: { kty: { type: 'string', enum: ['OKP'] }, crv: { type: 'string', enum: ['Ed25519'] }, x: { type: 'string' }, kid: { type: 'string' }, alg: { type: 'string', enum: ['EdDSA'] }, use: { type: 'string', enum: ['sig'] } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  )
}
