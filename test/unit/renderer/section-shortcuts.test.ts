import { afterEach, describe, expect, it } from 'vitest'
import { installSectionShortcuts, useNavigation } from '../../../src-renderer/app/navigation-store'

const key = (digit: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = { ctrlKey: true }) =>
  Object.assign(new Event('keydown', { cancelable: true }), {
    key: digit,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...modifiers,
  })

/** The sections' ids and digits as sections.ts has them (its screens are not loaded here). */
const SECTIONS = [
  { id: 'groups', shortcut: '1' },
  { id: 'site', shortcut: '3' },
  { id: 'bulk', shortcut: '5' },
] as const

describe('section shortcuts, installed as the page script runs', () => {
  const target = new EventTarget()
  let uninstall = () => {}
  afterEach(() => {
    uninstall()
    useNavigation.setState({ current: 'groups', opened: 0 })
  })

  it('open the section of a digit with Ctrl or Cmd, and count as an opening', () => {
    uninstall = installSectionShortcuts(target as unknown as Window, SECTIONS)
    const ctrl3 = key('3')
    target.dispatchEvent(ctrl3)
    expect(useNavigation.getState()).toMatchObject({ current: 'site', opened: 1 })
    expect(ctrl3.defaultPrevented).toBe(true)
    target.dispatchEvent(key('5', { metaKey: true }))
    expect(useNavigation.getState()).toMatchObject({ current: 'bulk', opened: 2 })
  })

  it('leave other keys to the page: no modifier, Shift or Alt, a digit no section has', () => {
    uninstall = installSectionShortcuts(target as unknown as Window, SECTIONS)
    for (const event of [key('3', {}), key('3', { ctrlKey: true, shiftKey: true }), key('3', { ctrlKey: true, altKey: true }), key('9')]) {
      target.dispatchEvent(event)
      expect(event.defaultPrevented).toBe(false)
    }
    expect(useNavigation.getState()).toMatchObject({ current: 'groups', opened: 0 })
  })

  it('stop when uninstalled', () => {
    installSectionShortcuts(target as unknown as Window, SECTIONS)()
    target.dispatchEvent(key('3'))
    expect(useNavigation.getState().current).toBe('groups')
  })
})
