import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { csvRows } from '../../../src-main/storage/csv-export'

const HYPERLINK = '=HYPERLINK("http://evil.example","x")'
const SUM = '+SUM(1,2)'

const cells = (text: string) => Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data

describe('CSV written for a spreadsheet', () => {
  it('defuses every cell a spreadsheet would run (=, +, -, @, tab, CR), even with a line break after; numbers stay numbers', () => {
    const rows = cells(csvRows([[HYPERLINK, SUM, '-1+1', '@cmd', '\tx', '\rx', '=a\nb', -5, 3.5, 'plain', '']]))
    expect(rows[0]).toEqual([`'${HYPERLINK}`, `'${SUM}`, "'-1+1", "'@cmd", "'\tx", "'\rx", "'=a\nb", '-5', '3.5', 'plain', ''])
    // Only the first character decides: these are text, left as they are.
    expect(cells(csvRows([['a=b', 'x-y@z', 'tab\there', '1+1']]))[0]).toEqual(['a=b', 'x-y@z', 'tab\there', '1+1'])
  })

  describe('the activity export and a bulk run’s results', () => {
    let sandbox: Sandbox
    let services: AppServices
    let profileId: string
    beforeAll(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ec-csv-'))
      sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
      services = await createAppServices({ dataDir: join(dir, 'data'), transport: 'browser', sandbox: false })
      profileId = (
        await services.profiles.create({
          name: 'CSV',
          baseUrl: sandbox.baseUrl,
          timeoutSeconds: 5,
          environmentLabel: '',
          apiToken: sandbox.tokens.Customer,
          tokenStorage: 'session',
        })
      ).id
    })
    afterAll(async () => {
      await services.close()
      await sandbox.close()
    })

    const text = async (chunks: AsyncIterable<string>) => {
      let all = ''
      for await (const chunk of chunks) all += chunk
      return all
    }

    it('write a hostile group id as text', async () => {
      await services.groups.getOrCreate(profileId, { user_group_id: HYPERLINK, name: SUM })
      const download = services.router.download('activity', { format: 'csv' })
      expect(download.ok).toBe(true)
      const exported = cells(await text((download as { value: { chunks: AsyncIterable<string> } }).value.chunks))
      const groupColumn = exported[0]!.indexOf('groupId')
      expect(exported[1]![groupColumn]).toBe(`'${HYPERLINK}`)
      expect(exported[1]![exported[0]!.indexOf('durationMs')]).toMatch(/^\d/)

      const settings = { concurrency: 1, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }
      const plan = services.bulk.plan({
        kind: 'apply',
        target: { profileId },
        fileName: 'evil.csv',
        text: `user_group_id,name\n"${SUM.replace(/"/g, '""')}",x\n"@evil",y`,
        excludeInvalid: false,
        settings,
      })
      await services.bulk.launch(plan.runId!, settings).done
      const results = cells(await text(services.bulk.results(plan.runId!, 'csv', false)))
      expect(results.slice(1).map((row) => row[1])).toEqual([`'${SUM}`, "'@evil"])
    })
  })
})
