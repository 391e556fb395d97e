import { parseOdemeOptions } from "../../../lib/options"
import { createServiceClient } from "../service-client"
import { startLocalService, json, type LocalService } from "../../../client/__tests__/support/local-service"

// The plugin's client (src/modules/odeme/service-client.ts) as the poller uses it: its pool must not bound the poller.
const options = (baseUrl: string, pollConcurrency?: number) =>
  parseOdemeOptions({
    apiKey: "k",
    apiId: "1001",
    baseUrl,
    backendUrl: "http://localhost:9000",
    storefrontUrl: "http://localhost:8000",
    transfer: pollConcurrency === undefined ? {} : { pollConcurrency },
  })

describe("connections of the plugin's service client", () => {
  let service: LocalService | undefined
  afterEach(async () => {
    await service?.close()
    service = undefined
  })

  it("lets as many checks run at once as the poller's concurrency asks for", async () => {
    // Every answer waits until 30 requests are in flight (or 5 s pass): a pool of fewer connections
    // never gets there, however slowly a busy machine opens them.
    const held: Array<() => void> = []
    const answerAll = () => held.splice(0).forEach((answer) => answer())
    const fallback = setTimeout(answerAll, 5_000)
    service = await startLocalService((_req, res) => {
      held.push(() => json(res, 200, { result: [] }))
      if (held.length >= 30) answerAll()
    })
    const { client } = createServiceClient(options(service.url, 30))
    await Promise.all(Array.from({ length: 30 }, () => client.listBankGroups()))
    clearTimeout(fallback)
    await client.close()
    expect(service.maxInFlight()).toBe(30)
  })
})
