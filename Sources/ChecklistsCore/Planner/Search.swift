import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Text folded for search: lower case, without accents or width differences, as UTF-8, so
/// "Café", "CAFE" and "café" all read "cafe".
///
/// Folding goes scalar by scalar: ASCII is lower-cased in place; any other scalar is folded
/// once (`ScalarFolding`) and remembered, so a whole index folds each distinct letter once.
public struct SearchFolding: Sendable {
  private var cache: [UInt32: [UInt8]] = [:]

  /// A folder with an empty cache.
  public init() {}

  /// The folded UTF-8 bytes of `text`.
  public static func fold(_ text: String) -> [UInt8] {
    var folding = SearchFolding()
    var bytes: [UInt8] = []
    folding.fold(text, into: &bytes)
    return bytes
  }

  /// Appends the folded bytes of `text` to `bytes`.
  public mutating func fold(_ text: String, into bytes: inout [UInt8]) {
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        let byte = UInt8(truncatingIfNeeded: value)
        bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
      } else if let folded = ScalarFolding.lookUp(value) {
        bytes.append(contentsOf: folded)
      } else if ScalarFolding.isCaseless(value) {
        // CJK, kana, Hangul and emoji are themselves: no lookup, no copy.
        UTF8.encode(scalar) { bytes.append($0) }
      } else if let folded = cache[value] {
        bytes.append(contentsOf: folded)
      } else {
        let folded = Self.foldScalar(scalar)
        cache[value] = folded
        bytes.append(contentsOf: folded)
      }
    }
  }

  /// One scalar `ScalarFolding.lookUp` does not know, folded: a combining accent folds to nothing, a
  /// letter without case (CJK, emoji) is itself.
  private static func foldScalar(_ scalar: Unicode.Scalar) -> [UInt8] {
    // A combining accent typed apart from its letter ("e" + U+0301) is dropped like the
    // accent of a precomposed "é".
    if scalar.properties.generalCategory == .nonspacingMark { return [] }
    if !scalar.properties.changesWhenLowercased { return Array(String(scalar).utf8) }
    return Array(ScalarFolding.folded(scalar).utf8)
  }
}

/// Every item's text and note, folded once, for searching all lists as the user types.
///
/// Build it once per version of the model; each search then only compares bytes. Results come in list order, then item order.
public struct SearchIndex: Sendable {
  /// The folded text, a newline and the folded note of every item, each ended by a 0 byte.
  private let bytes: [UInt8]
  /// Where each item's entry starts in `bytes`; one more element than there are items.
  private let starts: [Int32]
  /// Each entry's list index and item index in the model.
  private let places: [(list: Int32, item: Int32)]
  /// The model the index was built from.
  public let model: DataModel

  /// Indexes every item of `model`.
  public init(_ model: DataModel) {
    self.model = model
    let count = model.itemCount
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * 24)
    var starts: [Int32] = []
    starts.reserveCapacity(count + 1)
    var places: [(list: Int32, item: Int32)] = []
    places.reserveCapacity(count)
    var folding = SearchFolding()
    for (listIndex, list) in model.lists.enumerated() {
      for (itemIndex, item) in list.items.enumerated() {
        starts.append(Int32(truncatingIfNeeded: bytes.count))
        places.append((Int32(truncatingIfNeeded: listIndex), Int32(truncatingIfNeeded: itemIndex)))
        folding.fold(item.text, into: &bytes)
        let note = item.note
        if !note.isEmpty {
          bytes.append(0x0A)
          folding.fold(note, into: &bytes)
        }
        bytes.append(0)
      }
    }
    starts.append(Int32(truncatingIfNeeded: bytes.count))
    self.bytes = bytes
    self.starts = starts
    self.places = places
  }

  /// How many items the index holds.
  public var count: Int { places.count }

  /// The items whose text or note contains `query` (folded); none for an empty query.
  ///
  /// Two queries are special: `#NAME` also finds the items with a tag that starts with NAME
  /// (case and accents ignored, "#work" finds the tag "Work"), and `!`, `!!` or `!!!` alone
  /// find the items of that priority (low, medium, high) and nothing else.
  public func search(_ query: String) -> SearchResults {
    let trimmed = query.trimmingSpaces()
    if let level = PriorityLevel(marks: trimmed) {
      return SearchResults(query: query, needle: [], entries: entries { $0.priorityLevel == level })
    }
    if trimmed.count > 1, trimmed.hasPrefix("#") {
      let prefix = SearchFolding.fold(String(trimmed.dropFirst()).trimmingSpaces())
      var folding = SearchFolding()
      var folded: [UInt8] = []
      let tagged = entries { item in
        item.tags.contains { tag in
          folded.removeAll(keepingCapacity: true)
          folding.fold(tag, into: &folded)
          return folded.starts(with: prefix)
        }
      }
      let texts = textSearch(query).entries
      // Both in model order: merged, each entry once. No needle: typing on searches afresh.
      let union = Array(Set(tagged).union(texts)).sorted()
      return SearchResults(query: query, needle: [], entries: union)
    }
    return textSearch(query)
  }

  /// The entries whose item passes `test`, in model order.
  private func entries(where test: (ChecklistItem) -> Bool) -> [Int32] {
    var found: [Int32] = []
    for (entry, place) in places.enumerated() {
      let item = model.lists[Int(place.list)].items[Int(place.item)]
      if test(item) { found.append(Int32(truncatingIfNeeded: entry)) }
    }
    return found
  }

  /// The items whose text or note contains `query` (folded).
  private func textSearch(_ query: String) -> SearchResults {
    let needle = SearchFolding.fold(query).filter { $0 != 0 }
    guard !needle.isEmpty else { return SearchResults(query: query, needle: needle, entries: []) }
    var entries: [Int32] = []
    bytes.withUnsafeBufferPointer { haystack in
      needle.withUnsafeBufferPointer { pattern in
        guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else { return }
        starts.withUnsafeBufferPointer { starts in
          var offset = 0
          var entry = 0
          while offset < haystack.count {
            guard
              let position = Self.find(
                patternBase, pattern.count, in: base, from: offset, to: haystack.count)
            else { break }
            // Hits come in order: walk on to the entry that holds this one.
            while Int(starts[entry + 1]) <= position { entry += 1 }
            entries.append(Int32(truncatingIfNeeded: entry))
            offset = Int(starts[entry + 1])
            entry += 1
          }
        }
      }
    }
    return SearchResults(query: query, needle: needle, entries: entries)
  }

  /// The results for `query` when it contains the query of `previous` (one more character
  /// typed): only `previous`'s items are looked at. Otherwise a full `search`.
  public func refine(_ previous: SearchResults, to query: String) -> SearchResults {
    let needle = SearchFolding.fold(query).filter { $0 != 0 }
    guard !needle.isEmpty, !previous.needle.isEmpty, Self.contains(needle, previous.needle),
      !Self.isSpecial(query)
    else { return search(query) }
    var entries: [Int32] = []
    bytes.withUnsafeBufferPointer { haystack in
      needle.withUnsafeBufferPointer { pattern in
        guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else { return }
        for entry in previous.entries {
          let start = Int(starts[Int(entry)])
          let length = Int(starts[Int(entry) + 1]) - start
          if Self.find(patternBase, pattern.count, in: base, from: start, to: start + length) != nil
          {
            entries.append(entry)
          }
        }
      }
    }
    return SearchResults(query: query, needle: needle, entries: entries)
  }

  /// The rows of `results`, grouped by list in the model's order.
  public func groups(_ results: SearchResults) -> [SearchGroup] {
    var groups: [SearchGroup] = []
    for entry in results.entries {
      let place = places[Int(entry)]
      let listIndex = Int(place.list)
      let list = model.lists[listIndex]
      let row = PlannerRow(
        listID: list.id, listIndex: listIndex, listName: list.name, itemIndex: Int(place.item),
        item: list.items[Int(place.item)])
      if groups.last?.listID == list.id {
        groups[groups.count - 1].rows.append(row)
      } else {
        groups.append(SearchGroup(listID: list.id, listName: list.name, rows: [row]))
      }
    }
    return groups
  }

  /// Calls `body` with the list index and item index of each result, in model order, without
  /// making rows (a screen of results needs only the places).
  public func forEachPlace(_ results: SearchResults, _ body: (_ list: Int, _ item: Int) -> Void) {
    for entry in results.entries {
      let place = places[Int(entry)]
      body(Int(place.list), Int(place.item))
    }
  }

  /// The row of one result, by its position in `results`.
  public func row(_ results: SearchResults, at position: Int) -> PlannerRow? {
    guard results.entries.indices.contains(position) else { return nil }
    let place = places[Int(results.entries[position])]
    let list = model.lists[Int(place.list)]
    return PlannerRow(
      listID: list.id, listIndex: Int(place.list), listName: list.name,
      itemIndex: Int(place.item), item: list.items[Int(place.item)])
  }

  /// The offset in `base` of the first `needle` that lies within `from..<to`: `memchr` finds
  /// each candidate first byte, `memcmp` checks the rest.
  private static func find(
    _ needle: UnsafePointer<UInt8>, _ count: Int, in base: UnsafePointer<UInt8>, from: Int,
    to: Int
  ) -> Int? {
    let first = Int32(needle[0])
    var offset = from
    while to - offset >= count {
      guard let hit = memchr(base + offset, first, to - offset - count + 1) else { return nil }
      let position = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
      if count == 1 || memcmp(base + position + 1, needle + 1, count - 1) == 0 { return position }
      offset = position + 1
    }
    return nil
  }

  /// Whether `query` is a tag or priority query (see `search`).
  static func isSpecial(_ query: String) -> Bool {
    let trimmed = query.trimmingSpaces()
    return PriorityLevel(marks: trimmed) != nil || (trimmed.count > 1 && trimmed.hasPrefix("#"))
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return true
    }
    return false
  }
}

/// The items a search found, as positions in its `SearchIndex`.
public struct SearchResults: Equatable, Sendable {
  /// The query as typed.
  public let query: String
  /// The folded query.
  let needle: [UInt8]
  /// The matching entries of the index, in model order.
  let entries: [Int32]

  /// How many items matched.
  public var count: Int { entries.count }
  /// Whether nothing matched.
  public var isEmpty: Bool { entries.isEmpty }
}

/// The search results of one list.
public struct SearchGroup: Equatable, Sendable {
  /// The list.
  public var listID: Checklist.ID
  /// The list's name, the group's heading.
  public var listName: String
  /// The matching items, in list order.
  public var rows: [PlannerRow]
}

/// Search as the user types: keeps the last results so that each added character only
/// filters them.
public struct SearchSession: Sendable {
  /// The index searched.
  public let index: SearchIndex
  /// The results for the current query.
  public private(set) var results: SearchResults

  /// A session over `model` with an empty query.
  public init(_ model: DataModel) {
    index = SearchIndex(model)
    results = index.search("")
  }

  /// Sets the query and returns its results.
  @discardableResult
  public mutating func update(query: String) -> SearchResults {
    if query != results.query { results = index.refine(results, to: query) }
    return results
  }

  /// The current results grouped by list.
  public var groups: [SearchGroup] { index.groups(results) }
}
