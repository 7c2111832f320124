"""Adapters for agent frameworks, each an optional extra:
``sentience_sdk.adapters.langchain`` (``pip install 'sentience-sdk[langchain]'``)
and ``sentience_sdk.adapters.browser_use`` (``pip install 'sentience-sdk[browser-use]'``)."""
