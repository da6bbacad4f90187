#include "oracle/checker.h"
