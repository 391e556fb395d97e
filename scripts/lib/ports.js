/** Ports for the processes the demo and the tests start. */
const net = require("node:net")

/** A port nobody listens on right now (the OS picks it), so parallel runs never collide. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on("error", reject)
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

/** True when something accepts connections on 127.0.0.1:port (the demo's fixed ports). */
function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" })
    socket.setTimeout(1000)
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("timeout", () => (socket.destroy(), resolve(false)))
    socket.once("error", () => resolve(false))
  })
}

module.exports = { freePort, portInUse }
