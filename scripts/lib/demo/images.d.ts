import type { DemoConfig } from "./config"

export interface ProductImages {
  id: string
  thumbnail?: string | null
  images?: Array<{ url: string }> | null
}
export interface ImageUpdate {
  id: string
  body: { thumbnail?: string; images?: Array<{ url: string }> }
}
export function movedImageUrl(url: string, storefrontUrl: string, imageFiles: string[]): string | null
export function imageUpdates(products: ProductImages[], storefrontUrl: string, imageFiles: string[]): ImageUpdate[]
export function moveImagesToStorefront(cfg: DemoConfig, log: (m: string) => void): Promise<number>
