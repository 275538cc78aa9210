import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// libFuzzer target for the loader: every input is decoded; an accepted file is saved in both
// formats, loaded again and compared with what was read. A mismatch traps, which libFuzzer
// reports as a crash and saves the input. Built by `Fuzz/run.sh` together with the core sources
// (one module), so no `import ChecklistsCore`.

/// Reports a round-trip failure on stderr and traps so that libFuzzer keeps the input.
private func roundTripFailure(_ what: String) -> Never {
  FileHandle.standardError.write(Data("round trip: \(what)\n".utf8))
  abort()
}

/// Seconds since 2001 the way the XML form keeps them: rounded down to a whole second.
private func xmlSeconds(_ date: Date) -> Double {
  date.timeIntervalSinceReferenceDate.rounded(.down)
}

/// Whether two dates are the same, NaN equal to NaN; `whole` floors the expected one first.
private func sameDate(_ expected: Date, _ actual: Date, whole: Bool) -> Bool {
  let left = whole ? xmlSeconds(expected) : expected.timeIntervalSinceReferenceDate
  let right = actual.timeIntervalSinceReferenceDate
  return left == right || (left.isNaN && right.isNaN)
}

/// Whether two plist values hold the same content (NaN equals NaN; XML dates are whole seconds).
private func sameValue(_ expected: PlistValue, _ actual: PlistValue, whole: Bool) -> Bool {
  switch (expected, actual) {
  case (.real(let left), .real(let right)):
    return left == right || (left.isNaN && right.isNaN)
  case (.date(let left), .date(let right)):
    return sameDate(left, right, whole: whole)
  case (.array(let left), .array(let right)):
    return left.count == right.count
      && zip(left, right).allSatisfy { sameValue($0, $1, whole: whole) }
  case (.dictionary(let left), .dictionary(let right)):
    return sameFields(left, right, whole: whole)
  default:
    return expected == actual
  }
}

private func sameFields(
  _ expected: [PlistKey: PlistValue], _ actual: [PlistKey: PlistValue], whole: Bool
) -> Bool {
  guard expected.count == actual.count else { return false }
  for (key, value) in expected {
    guard let other = actual[key], sameValue(value, other, whole: whole) else { return false }
  }
  return true
}

/// Where two list arrays differ, or nil when they hold the same content.
private func difference(_ expected: [Checklist], _ actual: [Checklist], whole: Bool) -> String? {
  guard expected.count == actual.count else {
    return "\(expected.count) lists became \(actual.count)"
  }
  for (index, (left, right)) in zip(expected, actual).enumerated() {
    guard left.name == right.name, left.iconName == right.iconName else {
      return "list \(index): name or icon differs"
    }
    guard sameFields(left.unknownFields, right.unknownFields, whole: whole) else {
      return "list \(index): unknown fields differ"
    }
    guard left.items.count == right.items.count else {
      return "list \(index): \(left.items.count) items became \(right.items.count)"
    }
    for (position, (a, b)) in zip(left.items, right.items).enumerated() {
      guard a.text == b.text, a.checked == b.checked, a.shouldRemind == b.shouldRemind,
        a.itemID == b.itemID, sameDate(a.dueDate, b.dueDate, whole: whole),
        sameFields(a.unknownFields, b.unknownFields, whole: whole)
      else { return "list \(index), item \(position) differs" }
    }
  }
  return nil
}

/// Saves `lists` in `format`, loads the bytes back and checks content and stable bytes.
private func checkRoundTrip(_ lists: [Checklist], format: PlistFormat) {
  let saved: EncodedChecklists
  do {
    saved = try ChecklistsFileCoding.encode(lists, format: format)
  } catch {
    roundTripFailure("encoding as \(format) failed: \(error.message)")
  }
  if saved.format != format && saved.formatNote == nil {
    roundTripFailure("\(format) asked, \(saved.format) written without a note")
  }
  let reloaded: ChecklistsDocument
  do {
    reloaded = try ChecklistsFileCoding.decode(saved.data)
  } catch {
    roundTripFailure("own \(saved.format) output rejected: \(error.message)")
  }
  if reloaded.format != saved.format {
    roundTripFailure("wrote \(saved.format), read back as \(reloaded.format)")
  }
  if let problem = difference(lists, reloaded.lists, whole: saved.format == .xml) {
    roundTripFailure("\(saved.format): \(problem)")
  }
  // Saving what was loaded from our own output gives the same bytes.
  do {
    let again = try ChecklistsFileCoding.encode(reloaded.lists, format: format)
    if again.data != saved.data { roundTripFailure("\(saved.format): bytes not stable") }
  } catch {
    roundTripFailure("re-encoding as \(format) failed: \(error.message)")
  }
}

/// libFuzzer's entry point: one input, returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoaderTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  let document: ChecklistsDocument
  do {
    document = try ChecklistsFileCoding.decode(data)
  } catch {
    if error.message.isEmpty { roundTripFailure("rejected with an empty message") }
    return 0
  }
  checkRoundTrip(document.lists, format: .binary)
  checkRoundTrip(document.lists, format: .xml)
  return 0
}
