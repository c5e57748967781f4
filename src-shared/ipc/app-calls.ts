import { z } from 'zod'
import { defineCall } from './define'
import { SandboxStatusSchema } from './events'

export const TransportSchema = z.enum(['electron', 'browser'])

export const appCalls = {
  'app.info': defineCall({
    summary: 'What is running: version, transport and where data is kept.',
    input: z.object({}).strict(),
    output: z.object({
      name: z.string(),
      version: z.string(),
      transport: TransportSchema,
      fileDialogs: z.boolean().describe('Files are chosen with the system’s dialogs (the desktop app), or typed as paths (browser mode)'),
      dataDir: z.string(),
      platform: z.string(),
      sandbox: SandboxStatusSchema,
      notices: z.array(z.string()).describe('Sentences about this launch: data imported, a record skipped, a file moved aside'),
    }),
  }),
}
