/**
 * 1-based line and column of any offset in a text, found by a binary search over where its lines
 * start (listed once): \n, \r\n and a lone \r each end a line, as in Monaco.
 */
export class LineStarts {
  private readonly starts: number[] = [0]
  constructor(text: string) {
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index)
      if (code === 0x0a || (code === 0x0d && text.charCodeAt(index + 1) !== 0x0a)) this.starts.push(index + 1)
    }
  }
  at(offset: number): { line: number; column: number } {
    let low = 0
    let high = this.starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.starts[middle]! <= offset) low = middle
      else high = middle - 1
    }
    return { line: low + 1, column: offset - this.starts[low]! + 1 }
  }
}
