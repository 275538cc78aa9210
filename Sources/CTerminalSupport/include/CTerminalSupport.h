#ifndef CHECKLISTS_CTERMINALSUPPORT_H
#define CHECKLISTS_CTERMINALSUPPORT_H
/// Placeholder; the terminal layer fills this in.
int ct_placeholder(void);
#endif
