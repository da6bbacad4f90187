#include "planner/tlsf.h"
