/* The session-id rule (see session_id.h). */
#include "session_id.h"

const char SESSION_ID_RULE[] = "session_id must be 1 to 128 visible ASCII characters (no spaces or control characters)";

bool session_id_valid(const char *id, size_t len) {
    if (!id || len == 0 || len > SESSION_ID_MAX) return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)id[i] < 0x21 || (unsigned char)id[i] > 0x7e) return false;
    return true;
}
