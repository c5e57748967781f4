// A second (or third) process on one data folder, for the concurrency tests: it starts the app's
// services (with their own sandbox, as the desktop app and browser mode each do), then creates
// profiles and gets or creates groups through the local sandbox profile, and prints what it saw.
import { createAppServices, SANDBOX_PROFILE_ID } from '../../../src-main/app-services'

const [dataDir, label, countText] = process.argv.slice(2)
const count = Number(countText)
const services = await createAppServices({ dataDir: dataDir!, transport: 'browser' })
const createdGroups: string[] = []
const failures: string[] = []
for (let index = 0; index < count; index++) {
  try {
    await services.profiles.create({
      name: `${label} profile ${index}`,
      baseUrl: 'https://api.example.com',
      timeoutSeconds: 15,
      environmentLabel: '',
    })
    // Half the ids are shared with the other writer: each must be created exactly once.
    const groupId = index % 2 === 0 ? `shared-${index}` : `${label}-${index}`
    const result = await services.groups.getOrCreate(SANDBOX_PROFILE_ID, { user_group_id: groupId, name: `${label} ${index}` })
    if (result.newUserGroup) createdGroups.push(groupId)
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error))
  }
}
// The sandbox's state, so a failure says whether it started at all.
const info = await services.router.dispatch('app.info', {}, { transport: 'test' })
await services.close()
process.stdout.write(
  JSON.stringify({ createdGroups, failures, sandbox: info.ok ? (info.value as { sandbox: unknown }).sandbox : info.error }),
)
