/** Which product images the demo moves to the storefront's current address, and which it leaves alone. */
import { imageUpdates, movedImageUrl } from "../images"

const FILES = ["cay.svg", "kahve.svg", "lokum.svg"]
const NOW = "http://localhost:8100"

describe("the demo's product images", () => {
  it.each([
    ["http://localhost:8000/img/cay.svg", "http://localhost:8100/img/cay.svg"],
    ["http://127.0.0.1:8001/img/kahve.svg", "http://localhost:8100/img/kahve.svg"],
    ["http://[::1]:8000/img/lokum.svg?v=1", "http://localhost:8100/img/lokum.svg"],
  ])("moves the storefront's own image %s", (url, moved) => {
    expect(movedImageUrl(url, NOW, FILES)).toBe(moved)
  })

  it.each([
    ["already at the current address", "http://localhost:8100/img/cay.svg"],
    ["on another host", "https://cdn.example.com/img/cay.svg"],
    ["not one of the storefront's files", "http://localhost:8000/img/logo.png"],
    ["outside /img/", "http://localhost:9000/static/cay.svg"],
    ["not a URL", "cay.svg"],
  ])("leaves an image %s alone", (_why, url) => {
    expect(movedImageUrl(url, NOW, FILES)).toBeNull()
  })

  it("updates only the products that need it, with the whole image list", () => {
    const updates = imageUpdates(
      [
        { id: "prod_1", thumbnail: "http://localhost:8000/img/cay.svg", images: [] },
        { id: "prod_2", thumbnail: "http://localhost:8100/img/kahve.svg", images: null },
        {
          id: "prod_3",
          thumbnail: "https://cdn.example.com/own.png",
          images: [{ url: "https://cdn.example.com/own.png" }, { url: "http://localhost:8000/img/lokum.svg" }],
        },
        { id: "prod_4", thumbnail: null },
      ],
      NOW,
      FILES
    )
    expect(updates).toEqual([
      { id: "prod_1", body: { thumbnail: "http://localhost:8100/img/cay.svg" } },
      { id: "prod_3", body: { images: [{ url: "https://cdn.example.com/own.png" }, { url: "http://localhost:8100/img/lokum.svg" }] } },
    ])
  })
})
