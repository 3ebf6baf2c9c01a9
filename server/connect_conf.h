/* SparkConnectService/Config on a session, as Spark's
 * SparkConnectConfigHandler runs it over RuntimeConfig: set (with `silent`
 * turning failures into warnings), get, get_with_default, get_option,
 * get_all (with a prefix), unset, is_modifiable.
 *
 * Spark's typed defaults and checks come from a table of Spark's SQL
 * configuration keys (name, type, default, static or not): a get of a key
 * never set answers its default; a value of the wrong type is refused as
 * Spark refuses it ("<key> should be boolean, but was <v>"); static SQL keys
 * and Spark core keys cannot be set or unset (CANNOT_MODIFY_CONFIG); a get
 * of a key that has neither a value nor a default is SQL_CONF_NOT_FOUND. */
#ifndef CZ_CONNECT_CONF_H
#define CZ_CONNECT_CONF_H

#include <stdbool.h>

#include "core/arena.h"
#include "catalyzer.h"
#include "connect_error.h"
#include "spark/connect/base.pb-c.h"

/* Runs op on s, filling resp->pairs / resp->warnings in arena a. False with
 * *f set on an error (nothing after the failing key is applied, as in Spark). */
bool connect_config(CzSession *s, const Spark__Connect__ConfigRequest__Operation *op, Arena *a,
                    Spark__Connect__ConfigResponse *resp, RpcFailure *f);

/* The value of key in s as Spark's RuntimeConfig.get answers it: the value
 * set, else the default; NULL when neither exists. In arena a. */
const char *connect_conf_value(CzSession *s, const char *key, Arena *a);

#endif
