import { parseOdemeOptions } from "../options"
import { serviceConnections } from "../service-connections"
import { DEFAULT_CONNECTIONS } from "../../client"

// How many connections the plugin's client keeps (src/modules/odeme/service-client.ts): its pool must not bound the poller.
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
  it("keeps the default for the default poller and grows with its concurrency", () => {
    expect(serviceConnections(options("http://127.0.0.1:1"))).toBe(DEFAULT_CONNECTIONS)
    expect(serviceConnections(options("http://127.0.0.1:1", 20))).toBeGreaterThanOrEqual(20 + 4)
    expect(serviceConnections(options("http://127.0.0.1:1", 50))).toBeGreaterThanOrEqual(50 + 4)
  })
})
