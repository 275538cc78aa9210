import ChecklistsCore

extension AppKeyTable {
  /// The UI's key table (`KeyTable`), as `keys` and `config --check` read it.
  public static let ui = AppKeyTable(
    formats: KeyTable.Format.allCases.map(\.rawValue),
    rendered: { config, format in
      let table = config.map { KeyTable.configured(by: $0).table } ?? KeyTable.defaults
      return table.rendered(as: KeyTable.Format(rawValue: format) ?? .text)
    },
    problems: { KeyTable.configured(by: $0).problems })
}
