"""The base of the generated models (models.py): read-only views over parsed JSON."""

from __future__ import annotations

from typing import Any, Callable, Dict, Generic, Iterator, List, Optional, Sequence, Type, TypeVar, Union, overload

V = TypeVar("V", bound="View")
T = TypeVar("T")


class View:
    """A typed, read-only view of one JSON object of a snapshot.

    Building one costs nothing (it keeps a reference to the dict); each
    property reads its key when asked. ``raw`` is the JSON object itself.
    """

    __slots__ = ("_raw",)

    def __init__(self, raw: Dict[str, Any]) -> None:
        self._raw = raw

    @property
    def raw(self) -> Dict[str, Any]:
        """The JSON object this view reads (not a copy: do not mutate it)."""
        return self._raw

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object, as the contract spells it."""
        return self._raw

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._raw == self._raw  # type: ignore[attr-defined]

    def __hash__(self) -> int:  # views of mutable dicts: identity
        return id(self._raw)

    def __repr__(self) -> str:
        fields = getattr(type(self), "FIELDS", ())
        shown = ", ".join(f"{name}={self._raw[name]!r}" for name, _, _ in fields if name in self._raw and name != "elements")
        return f"{type(self).__name__}({shown})"


class ViewList(Sequence[V], Generic[V]):
    """A list of JSON objects seen as views of one class, built when indexed."""

    __slots__ = ("_items", "_cls")

    def __init__(self, items: List[Dict[str, Any]], cls: Type[V]) -> None:
        self._items = items
        self._cls = cls

    @overload
    def __getitem__(self, index: int) -> V: ...
    @overload
    def __getitem__(self, index: slice) -> List[V]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[V, List[V]]:
        if isinstance(index, slice):
            return [self._cls(x) for x in self._items[index]]
        return self._cls(self._items[index])

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[V]:
        cls = self._cls
        for x in self._items:
            yield cls(x)

    def __repr__(self) -> str:
        return f"ViewList[{self._cls.__name__}]({len(self._items)} items)"

    @property
    def raw(self) -> List[Dict[str, Any]]:
        """The JSON list itself."""
        return self._items


def _opt(value: Optional[T], make: Callable[[T], Any]) -> Any:
    return None if value is None else make(value)
