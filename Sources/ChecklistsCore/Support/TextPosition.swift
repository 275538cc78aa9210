/// A place in a text file as an editor shows it: line and column, both from 1. A column counts
/// characters (Unicode scalars, so "é" is one column), not bytes; a tab is one.
public struct TextPosition: Equatable, Sendable, CustomStringConvertible {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1.
  public var column: Int

  /// A position.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`, as compilers write it after a file name.
  public var description: String { "\(line):\(column)" }

  /// The position of the byte at `offset` in UTF-8 `bytes` (an offset past the end is the
  /// position after the last character).
  public static func of<Bytes: RandomAccessCollection<UInt8>>(offset: Int, in bytes: Bytes)
    -> TextPosition where Bytes.Index == Int
  {
    var line = 1
    var column = 1
    var index = bytes.startIndex
    let end = min(bytes.startIndex + max(offset, 0), bytes.endIndex)
    while index < end {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        // Continuation bytes belong to the character before them.
        column += 1
      }
      index += 1
    }
    return TextPosition(line: line, column: column)
  }
}
