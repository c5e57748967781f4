import type { DownloadName, DownloadQuery } from '../../src-shared/ipc/downloads'
import { fetchDownload } from './api'

/** Hands a blob to the browser's download (Electron shows its save dialog). */
function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Saves text as a file through the browser's download. */
export function downloadText(fileName: string, mimeType: string, text: string): void {
  saveBlob(fileName, new Blob([text], { type: mimeType }))
}

/** The file name main chose, from `Content-Disposition` (RFC 6266: the UTF-8 form first). */
function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('Content-Disposition') ?? ''
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1]
  if (encoded) return decodeURIComponent(encoded)
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback
}

/** Streams a download from main and saves it; resolves with the file's name. */
export async function saveDownload<N extends DownloadName>(name: N, query: DownloadQuery<N>): Promise<string> {
  const response = await fetchDownload(name, query)
  const fileName = fileNameOf(response, name)
  saveBlob(fileName, await response.blob())
  return fileName
}
