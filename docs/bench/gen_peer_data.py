#!/usr/bin/env python3
"""Write the same N to-do items in each comparison program's own format.

    gen_peer_data.py FORMAT N DEST

FORMAT is one of calcurse, tudu, taskwarrior, dooit, text. DEST is the file to
write (for dooit, the SQLite database). The items are realistic, deterministic
text with accents and emoji; the first one is always FIRST_ITEM (every format
shows it at the top of the first screen, so it serves as the ready text).

Standard library only, except dooit, which is written through dooit's own
model (run it with the Python of dooit's venv).
"""

import random
import sys
import uuid

FIRST_ITEM = "Pack the passport for Zürich"

VERBS = ["Buy", "Call", "Email", "Book", "Renew", "Fix", "Clean", "Return", "Pick up",
         "Order", "Pay", "Plan", "Water", "Check", "Print", "Cancel", "Schedule", "Sort"]
THINGS = ["oat milk", "the crème fraîche", "Zoë about the café", "the dentist", "the bike tyre",
          "passport photos", "jalapeño salsa", "the piñata", "tickets to Malmö", "the naïve art book",
          "the señora's parcel", "fresh croissants", "the electricity bill", "the garden hose",
          "a birthday cake for Renée", "the façade paint", "the Łódź hotel", "smørrebrød supplies",
          "the ficus", "wool socks", "the Ångström lab report", "the car insurance"]
WHEN = ["", "", "", " before Friday", " this weekend", " on the way home", " after lunch",
        " for the trip", " tomorrow morning", " (urgent)"]
EMOJI = ["", "", "", "", " 🛒", " 📞", " ✈️", " 🎂", " 🚲", " 🧾", " 🌱", " ☕", " 🥐", " 🧦"]


def items(n, emoji=True):
    rnd = random.Random(42)
    out = [FIRST_ITEM + (" 🛂" if emoji else "")]
    for i in range(1, n):
        text = "%s %s%s" % (rnd.choice(VERBS), rnd.choice(THINGS), rnd.choice(WHEN))
        if emoji:
            text += rnd.choice(EMOJI)
        out.append(text)
    return out


def write_calcurse(n, dest):
    # One todo a line: "[priority] text"; the first item gets priority 1 so that
    # it sorts to the top, the others none (0). A leading "-" marks completed.
    with open(dest, "w", encoding="utf-8") as f:
        for i, text in enumerate(items(n)):
            f.write("[%d] %s\n" % (1 if i == 0 else 0, text))


def xml_escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def write_tudu(n, dest):
    with open(dest, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write('<!DOCTYPE tudu SYSTEM "/usr/share/tudu/tudu.dtd">\n<todo>\n')
        for i, text in enumerate(items(n)):
            done = "yes" if i % 7 == 3 else "no"
            f.write('\t<todo done="%s" collapse="no">\n\t\t<title>%s</title>\n\t</todo>\n'
                    % (done, xml_escape(text)))
        f.write("</todo>\n")


def ff4_escape(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


def write_taskwarrior(n, dest):
    # pending.data, one task a line, attributes sorted by name as task writes them.
    rnd = random.Random(7)
    entry = 1700000000
    with open(dest, "w", encoding="utf-8") as f:
        for i, text in enumerate(items(n)):
            u = uuid.UUID(int=rnd.getrandbits(128), version=4)
            prio = ' priority:"H"' if i == 0 else ""
            f.write('[description:"%s" entry:"%d" modified:"%d"%s status:"pending" uuid:"%s"]\n'
                    % (ff4_escape(text), entry + i, entry + i, prio, u))


def write_dooit(n, dest):
    from dooit.api import manager, Workspace, Todo
    manager.connect(dest)
    root = Workspace._get_or_create_root()
    ws = Workspace(description="Chores 🧹", parent_workspace=root, order_index=0)
    manager.session.add(root)
    manager.session.add(ws)
    todos = []
    for i, text in enumerate(items(n)):
        todos.append(Todo(description=text, parent_workspace=ws, order_index=i,
                          pending=(i % 7 != 3)))
    manager.session.add_all(todos)
    manager.commit()


def write_text(n, dest):
    with open(dest, "w", encoding="utf-8") as f:
        for i, text in enumerate(items(n)):
            f.write("%s [%s] %s\n" % ("-", "x" if i % 7 == 3 else " ", text))


WRITERS = {"calcurse": write_calcurse, "tudu": write_tudu, "taskwarrior": write_taskwarrior,
           "dooit": write_dooit, "text": write_text}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in WRITERS:
        sys.exit(__doc__)
    WRITERS[sys.argv[1]](int(sys.argv[2]), sys.argv[3])


if __name__ == "__main__":
    main()
