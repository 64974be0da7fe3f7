"""Export stage: a Hugging Face dataset folder (Parquet + card) from reviewed samples."""

from builder.export.features import sample_features
from builder.export.hub import push_to_hub
from builder.export.writer import CONFIGS, ExportReport, export_dataset

__all__ = ["CONFIGS", "ExportReport", "export_dataset", "push_to_hub", "sample_features"]
