import { z } from 'zod'
import { SiteConfigSchema } from './schema'

/**
 * site.json's JSON Schema for Monaco's JSON language service: completions, hovers (the spec's
 * meanings), defaults and type diagnostics in the raw view. Draft-07, which Monaco reads fully.
 * What JSON Schema cannot say (the call-to-action name required only for type "link", the
 * warnings) comes from validateSiteConfig, which the editor shows beside these diagnostics.
 */
export const siteConfigJsonSchema = z.toJSONSchema(SiteConfigSchema, { target: 'draft-07', io: 'input' })
