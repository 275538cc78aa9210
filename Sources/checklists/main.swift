import ChecklistsCore

print("checklists")
