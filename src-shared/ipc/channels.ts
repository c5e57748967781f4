// Channel names shared by the preload bridge and the Electron shell. Kept apart from the
// contract so the sandboxed preload bundles two strings, not zod and every schema.
export const IPC_CALL_CHANNEL = 'embed-console:call'
export const IPC_EVENT_CHANNEL = 'embed-console:event'
