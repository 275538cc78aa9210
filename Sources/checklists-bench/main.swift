import ChecklistsCore

print("bench")
