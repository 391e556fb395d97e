export { odemeModule } from "../../lib/odeme-module"
