// Writes until it is killed, printing a line for each write once it is acknowledged: the crash
// tests kill -9 it mid-stream and then look for every acknowledged write.
import { createAppServices } from '../../../src-main/app-services'

const [dataDir] = process.argv.slice(2)
const services = await createAppServices({ dataDir: dataDir!, transport: 'browser', sandbox: false })
for (let index = 0; ; index++) {
  const profile = await services.profiles.create({
    name: `crash ${index}`,
    baseUrl: 'https://api.example.com',
    timeoutSeconds: 15,
    environmentLabel: '',
  })
  await services.profiles.update(profile.id, { apiToken: `token-of-crash-${index}-0123456789`, tokenStorage: 'file' })
  process.stdout.write(`ack ${profile.name}\n`)
}
