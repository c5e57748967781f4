import { useQuery } from '@tanstack/react-query'
import { call } from './api'
import { queryKeys } from './query-keys'

let fileDialogs: Promise<boolean> | null = null

/** Whether files are chosen with the system's dialogs (the desktop app) or typed (browser mode); asked once. */
export const usesFileDialogs = () =>
  (fileDialogs ??= call('app.info', {})
    .then((info) => info.fileDialogs)
    .catch(() => false))

/** The same answer for a screen: one cache entry, one shape, whichever screen asks first. */
export const useFileDialogs = () => useQuery({ queryKey: queryKeys.fileDialogs, queryFn: usesFileDialogs, staleTime: Infinity })
