"""Adapters for agent frameworks, each an optional extra:
``sentience_sdk.adapters.langchain`` (``pip install 'sentience-sdk[langchain]'``)."""
