/// One level of a property list: a scalar, or a collection of child nodes not yet read.
///
/// Readers hand out shapes so a schema can walk a file without building the whole tree.
enum PlistShape<Node> {
  /// A string, number, boolean, date or data.
  case scalar(PlistValue)
  /// An array's elements.
  case array([Node])
  /// A dictionary's entries, in file order (a repeated key: the last one counts).
  case dictionary([(key: String, value: Node)])

  /// The kind with an article, for messages ("a string", "an array").
  var kindDescription: String {
    switch self {
    case .scalar(let value): return value.kindDescription
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    }
  }
}

/// A parsed property list that can be walked shape by shape.
protocol PlistNodeSource {
  /// A reference to one value of the file.
  associatedtype Node
  /// The top-level value.
  var root: Node { get }
  /// The value's kind and, for collections, its children.
  func shape(of node: Node) throws(PlistError) -> PlistShape<Node>
  /// The whole value, children included.
  func value(of node: Node) throws(PlistError) -> PlistValue
}

/// A property list already in memory, as the XML reader builds it.
struct PlistTree {
  /// This node's kind and children.
  var shape: PlistShape<PlistTree>

  /// The value, converted recursively (depth is bounded by the reader).
  func value() -> PlistValue {
    switch shape {
    case .scalar(let value): return value
    case .array(let elements): return .array(elements.map { $0.value() })
    case .dictionary(let entries):
      var dictionary: [String: PlistValue] = [:]
      dictionary.reserveCapacity(entries.count)
      for entry in entries { dictionary[entry.key] = entry.value.value() }
      return .dictionary(dictionary)
    }
  }
}

/// Walks a `PlistTree`.
struct PlistTreeSource: PlistNodeSource {
  let root: PlistTree

  func shape(of node: PlistTree) -> PlistShape<PlistTree> { node.shape }

  func value(of node: PlistTree) -> PlistValue { node.value() }
}
