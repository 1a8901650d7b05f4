"""Django's Redis cache, made soft: with Redis unreachable, a read finds nothing and a write
keeps nothing (each logged), so a page counts what it would have found kept instead of failing.
The cache only ever holds what can be counted again (the kept standings)."""

from __future__ import annotations

import functools
import logging

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


def _soft(missing):
    """Wrap a cache method: a Redis failure logs and returns ``missing(args, kwargs)``."""

    def wrap(method):
        @functools.wraps(method)
        def softly(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except RedisError as exc:
                logger.warning("cache %s failed (%s): going on without it", method.__name__, exc)
                return missing(args, kwargs)

        return softly

    return wrap


def _default(args, kwargs):
    """What ``get`` returns for a key it does not have: its ``default``."""
    return args[1] if len(args) > 1 else kwargs.get("default")


class SoftRedisCache(RedisCache):
    get = _soft(_default)(RedisCache.get)
    get_many = _soft(lambda args, kwargs: {})(RedisCache.get_many)
    set = _soft(lambda args, kwargs: None)(RedisCache.set)
    set_many = _soft(lambda args, kwargs: list(args[0]) if args else [])(RedisCache.set_many)
    add = _soft(lambda args, kwargs: False)(RedisCache.add)
    delete = _soft(lambda args, kwargs: False)(RedisCache.delete)
    touch = _soft(lambda args, kwargs: False)(RedisCache.touch)
    clear = _soft(lambda args, kwargs: False)(RedisCache.clear)
