import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

// A 50-page Mintlify site as a docs team writes one: two tabs, six groups, pages with front matter
// and the components pages commonly hold (cards, steps, tabs, a code group, callouts, a table, a
// picture from the folder), for the site preview's benchmark.

export const PREVIEW_SITE_PAGES = 50

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 24"><rect width="24" height="24" rx="6" fill="#0D9373"/></svg>'

function pageText(title: string, index: number, next: string): string {
  return `---
title: ${title}
sidebarTitle: ${title}
description: What ${title.toLowerCase()} covers, and how to use it in a real deployment.
icon: ${['rocket', 'book-open', 'code', 'gear', 'bolt'][index % 5]}
---

Embedding a dashboard takes three things: a group for each customer, a token for that group, and
the page that shows the dashboard. This page explains **${title.toLowerCase()}** step by step, with
[the next page](/${next}) for what comes after.

<Note>Every example below runs against the local sandbox: nothing leaves your machine.</Note>

## Before you start

<CardGroup cols={2}>
  <Card title="Groups" icon="users" href="/${next}">One per customer, with its own token.</Card>
  <Card title="Tokens" icon="key">Rotated without downtime.</Card>
  <Card title="Dashboards" icon="chart-line">Embedded with one line.</Card>
  <Card title="Audit" icon="list-check">Every call recorded.</Card>
</CardGroup>

## Steps

<Steps>
  <Step title="Create the group">
    Send the group's id and name; the answer holds its token.
  </Step>
  <Step title="Embed the dashboard">
    Put the token in the page that shows the dashboard.
  </Step>
  <Step title="Rotate the token">
    Rotate it whenever a person leaves the customer's team.
  </Step>
</Steps>

<CodeGroup>
\`\`\`bash curl
curl -X GET https://api.example.com/api/user \\
  -H "Authorization: Token $API_TOKEN" \\
  -d '{"provided_id": "acme", "name": "Acme"}'
\`\`\`

\`\`\`ts client.ts
import { createClient } from '@example/embed'

const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.API_TOKEN })
const group = await client.groups.getOrCreate({ providedId: 'acme', name: 'Acme' })
console.log(group.token)
\`\`\`

\`\`\`python client.py
from example_embed import Client

client = Client(base_url="https://api.example.com", token=os.environ["API_TOKEN"])
group = client.groups.get_or_create(provided_id="acme", name="Acme")
print(group.token)
\`\`\`
</CodeGroup>

## Fields

| Field | Type | Meaning |
| --- | --- | --- |
| provided_id | string | Your id for the customer |
| name | string | Shown in the dashboard |
| properties | object | Anything the dashboard filters on |

<Tabs>
  <Tab title="Cloud">Use https://api.example.com.</Tab>
  <Tab title="Self-hosted">Use your own server's address.</Tab>
</Tabs>

<AccordionGroup>
  <Accordion title="What if the group exists?">The same group comes back, with its token.</Accordion>
  <Accordion title="Can a token be revoked?">Rotate it: the old one stops working at once.</Accordion>
</AccordionGroup>

![The dashboard](/images/logo.svg)

<Warning>Keep the API token on your server: it can create and rotate every group.</Warning>
`
}

/** Writes the site (docs.json, its pages, a picture) into `folder`; returns the docs.json path. */
export async function writePreviewSite(folder: string): Promise<string> {
  const guides = Array.from({ length: 5 }, (_, group) => ({
    group: `Guide group ${group + 1}`,
    pages: Array.from({ length: 8 }, (_, page) => `guides/group-${group + 1}/page-${page + 1}`),
  }))
  const api = [{ group: 'API', pages: Array.from({ length: 10 }, (_, page) => `api/endpoint-${page + 1}`) }]
  const pages = [...guides, ...api].flatMap((group) => group.pages)
  if (pages.length !== PREVIEW_SITE_PAGES) throw new Error(`The benchmark site has ${pages.length} pages, not ${PREVIEW_SITE_PAGES}.`)
  const config = {
    $schema: 'https://mintlify.com/docs.json',
    theme: 'mint',
    name: 'Bench Docs',
    // Alone in its object (no comma after it) and near the top, where the raw view's benchmark finds it in view.
    colors: { primary: '#0D9373' },
    logo: { light: '/images/logo.svg', dark: '/images/logo.svg' },
    navbar: {
      links: [{ label: 'Support', href: 'mailto:support@example.com' }],
      primary: { type: 'button', label: 'Dashboard', href: 'https://example.com' },
    },
    navigation: {
      tabs: [
        { tab: 'Guides', groups: guides },
        { tab: 'API reference', groups: api },
      ],
    },
  }
  await mkdir(join(folder, 'images'), { recursive: true })
  await writeFile(join(folder, 'images', 'logo.svg'), LOGO)
  await writeFile(join(folder, 'docs.json'), `${JSON.stringify(config, null, 2)}\n`)
  for (const [index, page] of pages.entries()) {
    await mkdir(join(folder, page, '..'), { recursive: true })
    const title = page.startsWith('api/') ? `Endpoint ${index - 39}` : `Guide ${index + 1}`
    await writeFile(join(folder, `${page}.mdx`), pageText(title, index, pages[(index + 1) % pages.length]!))
  }
  return join(folder, 'docs.json')
}
