// Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers, whose
// enums clash with Foundation's copy of ICU (_FoundationICU) in the same Swift module. The
// ICU part is only the layout of xmlCharEncodingHandler, which Swift never touches.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <string.h>
